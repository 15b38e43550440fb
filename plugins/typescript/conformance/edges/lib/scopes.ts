enum Color {
  Red,
  Green,
}

namespace Registry {
  export function lookup(name: string): Color {
    return name === "red" ? Color.Red : Color.Green;
  }
}

export function walk<T>(items: T[], visit: (item: T) => void): number {
  let count = 0;
  for (const [index, item] of items.entries()) {
    const { length } = String(item);
    if (length > index) {
      visit(item);
    }
    count++;
  }
  try {
    Registry.lookup("red");
  } catch (err) {
    throw err;
  }
  items.forEach((item) => visit(item));
  return count;
}
