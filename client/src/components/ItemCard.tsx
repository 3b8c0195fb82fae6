// A cat or bodega as a row in a personal list (saved, recently viewed): photo, the details the list
// passes in, and an optional action (e.g. remove) that sits outside the link.
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ItemPhoto } from './ItemPhoto.tsx';
import './item-card.css';

type ItemCardProps = {
  to: string;
  name: string;
  /** The small variant of its primary photo (`primary_thumb`). */
  thumb: string | null;
  kind: 'cat' | 'bodega';
  /** Shown above the name (a type badge, a time). */
  eyebrow?: ReactNode;
  children: ReactNode;
  action?: ReactNode;
};

export function ItemCard({ to, name, thumb, kind, eyebrow, children, action }: ItemCardProps) {
  return (
    <article className="item-card">
      <Link to={to} className="item-card__link">
        <ItemPhoto
          className="item-card__photo"
          src={thumb}
          alt={name}
          kind={kind === 'cat' ? 'cat' : 'store'}
        />
        <div className="item-card__body">
          {eyebrow && <div className="item-card__eyebrow">{eyebrow}</div>}
          <h3 className="item-card__name">{name}</h3>
          {children}
        </div>
      </Link>
      {action && <div className="item-card__action">{action}</div>}
    </article>
  );
}
