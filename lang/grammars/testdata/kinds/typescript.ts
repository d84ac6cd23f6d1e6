import type { Foo } from './foo';
export interface Shape { area(): number; readonly name?: string }
type Pair<T> = [T, T] | null;
enum Color { Red = 1, Green }
export abstract class Base<T extends object = {}> implements Shape {
  private static count: number = 0;
  constructor(protected readonly name: string) {}
  abstract area(): number;
  public describe(this: Base<T>, ...xs: number[]): string { return `${this.name}`; }
}
function isString(x: unknown): x is string { return typeof x === 'string'; }
const f = <T,>(x: T): T => x as T;
let v = obj!.prop satisfies Foo;
declare module 'm' { export const x: number; }
namespace N { export function g(): void {} }
for (const k in obj) { if (k) { continue; } }
