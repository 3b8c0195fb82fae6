import { useEffect } from 'react';
import { env } from '../config/env.ts';

/** Names the browser tab after what the screen shows ("Whiskers · Bodega Cats"). */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    document.title = title ? `${title} · ${env.productName}` : env.productName;
  }, [title]);
}
