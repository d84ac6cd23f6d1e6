import React, { useState } from 'react';
type Props = { name: string; items?: string[] };
export function Hello({ name, items = [] }: Props): JSX.Element {
  const [n, setN] = useState<number>(0);
  const f = (x: number) => x + 1;
  return (
    <div className="hello" onClick={() => setN(f(n))}>
      Hello, {name}! <b>{n}</b>
      {items.map(i => <Item key={i} {...props} />)}
      <>fragment</>
    </div>
  );
}
