import { Store } from "./store";

export async function load(store: Store, url: string): Promise<number> {
  const res = await fetch(url);
  const body: any = await res.json();
  var count = 0;
  for (const entry of body.items as any[]) {
    if (entry.title != undefined) {
      store.add(entry.title, entry);
      count++;
    }
  }
  console.info(`loaded ${count} items from ${url}`);
  return count;
}

export function parse(text: string) {
  const data = JSON.parse(text)!;
  return data.items!.length;
}
