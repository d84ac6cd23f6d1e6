import fs from "fs";
const { join } = require("path");
export { helper };
export * as ns from "./ns.js";

export function main(argv) {
  return argv.length;
}

function helper() {}
function* gen() {}

export class Widget extends Base {
  #count = 0;
  static defaults = {};
  constructor(opts) {
    super(opts);
  }
  render() {}
  #hidden() {}
}

class Local {}

export const VERSION = "1.0";
export let mutable = 1;
const arrow = async (x) => x * 2;
const plain = 3;
let later;
var old = 4;
