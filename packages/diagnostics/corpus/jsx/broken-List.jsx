export function List({ items, onPick }) {
  if (items.length === 0) {
    return <p className="empty">No items</p>;
  }
  return (
    <ul>
      {items.map((item) => (
        <li key={item.id} onClick={() => onPick(item)}>
          {item.label}
        </li>
      ))}
    </ul>
  );
}

export function Badge({ count }) {
  return <span className="badge">{count}</spam>;
}
