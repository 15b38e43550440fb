/** Anything with an area. */
export interface Shape {
  readonly kind: Kind;
  area(): number;
}

export enum Kind {
  Circle = "circle",
  Square,
}

export type Named<T> = T & { name: string };

/**
 * The shared base of all shapes.
 * Subclasses implement `area`.
 */
export abstract class Base implements Shape {
  abstract readonly kind: Kind;
  protected static count = 0;

  constructor(public readonly id: string) {
    Base.count++;
  }

  abstract area(): number;

  describe(): string {
    return `${this.id}: ${this.area()}`;
  }
}
