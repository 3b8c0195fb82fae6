// The two columns of a cat's or bodega's page: its sections, and a side column of cards.
import type { ReactNode } from 'react';

type ItemDetailLayoutProps = {
  /** The side column's accessible name. */
  sideLabel: string;
  side: ReactNode;
  children: ReactNode;
};

export function ItemDetailLayout({ sideLabel, side, children }: ItemDetailLayoutProps) {
  return (
    <div className="page">
      <div className="detail">
        <div className="detail__main">{children}</div>
        <aside className="detail__side" aria-label={sideLabel}>
          {side}
        </aside>
      </div>
    </div>
  );
}
