import { useState } from 'react';

interface PanelProps {
  title: string;
  items: string[];
}

export function Panel({ title, items }: PanelProps) {
  const [open, setOpen] = useState(false);
  return (
    <section className="panel">
      <h2 onClick={() => setOpen(!open)}>{title}</h2>
      {open && (
        <ul>
          {items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function Empty() {
  return <p>Nothing here.</div>;
}
