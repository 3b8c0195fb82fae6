import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { PageMessage, PageNotFound } from './PageMessage.tsx';

/** Shown when a route fails to render or its code fails to download (e.g. after a deploy). */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <PageNotFound />;
  }
  return (
    <PageMessage
      icon="alert"
      title="Something went wrong"
      tone="error"
      message="This page could not be shown."
    >
      <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
        Reload
      </button>
    </PageMessage>
  );
}
