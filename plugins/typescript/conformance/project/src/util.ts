export namespace Geometry {
  export const PI = 3.14159;
  export function square(x: number): number {
    return x * x;
  }
}

/** Clamp `value` into `[low, high]`. */
export const clamp = (value: number, low: number, high: number): number =>
  value < low ? low : value > high ? high : value;

let calls = 0;

export async function classify(values: number[], limit?: number): Promise<string[]> {
  const out: string[] = [];
  for (const value of values) {
    calls += 1;
    if (value > (limit ?? 10)) {
      out.push("big");
    } else if (value < 0) {
      out.push("negative");
    } else {
      switch (value) {
        case 0:
          out.push("zero");
          break;
        default:
          out.push("small");
      }
    }
  }
  try {
    return out;
  } catch (error) {
    return [];
  }
}

export default function describe({ name, size = 1 }: { name: string; size?: number }) {
  return `${name}:${size}`;
}
