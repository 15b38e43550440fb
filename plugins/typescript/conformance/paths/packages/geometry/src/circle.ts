export class Circle {
  constructor(public radius: number) {}
}
