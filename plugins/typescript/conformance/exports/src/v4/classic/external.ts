export function string(): StringSchema {
  return new StringSchema();
}

export class StringSchema {
  min(length: number): StringSchema {
    return this;
  }
}
