export * from "./shapes";
export { Circle as Round } from "./shapes/circle";
export type { Shape } from "./shapes/shape";
export * as geometry from "./util.js";
