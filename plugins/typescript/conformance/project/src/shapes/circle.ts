import { Base, Kind } from "./shape";
import type { Shape } from "./shape";
import * as util from "../util";

/** A round shape. */
export class Circle extends Base implements Shape {
  readonly kind = Kind.Circle;
  #radius: number;

  constructor(id: string, radius: number) {
    super(id);
    this.#radius = radius;
  }

  get radius(): number {
    return this.#radius;
  }

  set radius(value: number) {
    if (value < 0 || Number.isNaN(value)) {
      throw new RangeError("negative radius");
    }
    this.#radius = value;
  }

  area(): number {
    return util.Geometry.PI * this.#radius ** 2;
  }

  static unit(): Circle {
    return new Circle("unit", 1);
  }
}
