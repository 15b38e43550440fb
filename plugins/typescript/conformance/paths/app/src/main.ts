import { Circle } from "@geometry/circle";
import { area } from "geometry";
import { missing } from "@geometry/nowhere";

export function report(): number {
  const circle = new Circle(2);
  return area(circle.radius) + missing;
}
