import React, { useEffect, useState } from "react";

type Todo = { id: number; title: string; done: boolean };

interface Props {
  initial?: Todo[];
  onChange?: (todos: Todo[]) => void;
}

export function TodoList({ initial = [], onChange }: Props) {
  const [todos, setTodos] = useState<Todo[]>(initial);
  const [draft, setDraft] = useState("");

  useEffect(() => {
    onChange?.(todos);
  }, [todos, onChange]);

  const add = () => {
    if (!draft.trim()) return;
    setTodos([...todos, { id: Date.now(), title: draft, done: false }]);
    setDraft("");
  };

  const toggle = (id: number) =>
    setTodos(todos.map((t) => (t.id === id ? { ...t, done: !t.done } : t)));

  return (
    <div className="todo-list">
      <input value={draft} onChange={(e) => setDraft(e.target.value)} />
      <button onClick={add} disabled={!draft}>
        Add
      </button>
      <ul>
        {todos.map((t) => (
          <li key={t.id} onClick={() => toggle(t.id)} className={t.done ? "done" : ""}>
            {t.title}
          </li>
        ))}
      </ul>
      {todos.length === 0 && <p>Nothing to do.</p>}
    </div>
  );
}

export default TodoList;
