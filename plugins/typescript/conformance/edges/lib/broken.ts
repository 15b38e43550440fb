export function ok(): number {
  return 1;
}

export function broken( {
  return 2;
}
