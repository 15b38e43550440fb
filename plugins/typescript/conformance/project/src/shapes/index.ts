export * from "./shape";
export * from "./circle";
