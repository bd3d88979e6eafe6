import { Circle, totalArea } from './shapes.js';

export function run(): number {
  return totalArea([new Circle(1), new Circle(2)]);
}
