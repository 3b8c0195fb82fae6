import { Suspense, type ComponentType } from 'react';
import { Spinner } from '../../../components/Spinner.tsx';
import './search-route.css';

/**
 * The heading is part of the app shell so it paints at once; the controls, map and results (the
 * heavy part, `page`: SearchPage, loaded lazily) download with this route.
 */
export function SearchRoute({ page: SearchPage }: { page: ComponentType }) {
  return (
    <div className="page search-page">
      <header className="search-page__header">
        <h1>Search Bodega Cats</h1>
        <p className="search-page__subtitle">Find cats and bodegas in New York City</p>
      </header>
      <Suspense
        fallback={
          <div className="page--centered">
            <Spinner />
          </div>
        }
      >
        <SearchPage />
      </Suspense>
    </div>
  );
}
