import { readFile } from "fs";
import * as path from "node:path";
export { a, b as c } from "./other";
export * from "./all";

export function exported(x: number): string {
  return String(x);
}

function local(): void {}

export class Service extends Base implements Api {
  private readonly name: string = "s";
  static count = 0;
  constructor(private dep: Dep) {
    super();
  }
  async run(input: string): Promise<void> {}
  get value(): number { return 1; }
  #secret() {}
}

abstract class Shape {
  abstract area(): number;
}

export interface Options {
  verbose?: boolean;
  run(): void;
}

interface Hidden { x: number }

export type Id = string | number;
type Local = { a: 1 };

export enum Color { Red, Green = "g" }
enum Dir { Up }

export const answer = 42;
export let counter = 0;
const handler = (e: Event) => {};
const limit = 10;
let state;
let mutable = 1;
var legacy = 2;

namespace Util {
  export function help() {}
}

declare module "ambient" {
  export const v: number;
}

export default function () {}
