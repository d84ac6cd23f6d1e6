import fs from 'fs';
import { join } from "path";
const re = /ab+c/gi;
export default class Animal extends Base {
  #secret = 1;
  static count = 0;
  constructor(name) { super(); this.name = name; }
  async *speak() { yield `${this.name} speaks`; }
  get upper() { return this.name?.toUpperCase() ?? ''; }
}
function add(a, b = 2, ...rest) { return a + b + rest.length; }
const arrow = async (x) => await fetch(x);
let { a, b: [c, d] } = obj;
for (const [k, v] of Object.entries(obj)) { if (k in obj && !v) continue; }
const el = <div className="x">{items.map(i => <Item key={i} />)}</div>;
label: while (true) { break label; }
new Animal('cat').speak().next();
