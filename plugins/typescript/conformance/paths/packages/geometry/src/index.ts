export function area(radius: number): number {
  return 3.14 * radius * radius;
}
