/** A shape with an area. */
export interface Shape {
  area(): number;
}

export class Circle implements Shape {
  constructor(readonly radius: number) {}
  area(): number {
    return Math.PI * this.radius ** 2;
  }
}

export function totalArea(shapes: Shape[]): number {
  return shapes.reduce((sum, s) => sum + s.area(), 0);
}
