// A small TypeScript module in the style of real application code, with
// the mistakes the TypeScript rules of ../ruleset look for.
import { EventEmitter } from "events";

export interface Item {
  id: string;
  title: string;
  done: boolean;
  meta?: Record<string, any>;
}

var defaultTitle = "untitled";

export class Store extends EventEmitter {
  private items: Map<string, Item> = new Map();
  private cache: any = null;

  add(title: string, meta?: any): Item {
    var id = Math.random().toString(36).slice(2);
    const item: Item = { id, title: title || defaultTitle, done: false, meta };
    this.items.set(id, item);
    console.log("added", id);
    this.emit("change", item);
    return item;
  }

  toggle(id: string): void {
    const item = this.items.get(id)!;
    if (item.done == true) {
      item.done = false;
    } else if (item.done != false) {
      debugger;
    } else {
      item.done = true;
    }
    console.debug("toggled", item.id);
    this.emit("change", item);
  }

  find(pred: (item: Item) => boolean): Item | undefined {
    for (const item of this.items.values()) {
      if (pred(item) === true) {
        return item;
      }
    }
    console.error("not found");
    return undefined;
  }

  snapshot(): Item[] {
    if (this.cache == null) {
      this.cache = Array.from(this.items.values());
    }
    return this.cache!;
  }
}
