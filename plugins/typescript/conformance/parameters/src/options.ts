export interface Options {
  depth: number;
}

export type Visit = (options: Options, index: number) => void;

export function configure(options: Options): void {}

export function each(visit: (options: Options) => void): void {}
