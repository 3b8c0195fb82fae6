// A page loads its data over HTTP and then follows the live stream. Events that land between that
// load and the socket opening would be lost, so when the socket (re)opens the page fetches again,
// quietly; anything newer then arrives live.
import { useEffect, useRef } from 'react';
import { useLiveStore } from './store.ts';

export function useLiveCatchUp(refetch: () => void): void {
  const connection = useLiveStore((s) => s.connection);
  const previous = useRef(connection);
  const latest = useRef(refetch);
  useEffect(() => {
    latest.current = refetch;
  });
  useEffect(() => {
    const was = previous.current;
    previous.current = connection;
    if (connection === 'open' && was !== 'open') latest.current();
  }, [connection]);
}
