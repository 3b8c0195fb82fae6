import { Icon } from '../../../components/Icon.tsx';
import './backend-not-configured.css';

/** Shown by a build made without a backend (VITE_API_BASE_URL=none): how to connect one. */
export function BackendNotConfigured() {
  return (
    <section className="backend-missing card" role="alert">
      <span className="backend-missing__icon">
        <Icon name="alert" size={28} />
      </span>
      <h2>Backend Not Configured</h2>
      <p>This copy of Bodega Cats was built without an API address, so there is nothing to search yet.</p>
      <ol className="backend-missing__steps">
        <li>
          Deploy the Bodega Cats server (<code>npm start</code>, or the <code>api</code> and{' '}
          <code>worker</code> processes with Postgres and Redis).
        </li>
        <li>
          Either serve this client from that server (it serves <code>client/dist</code> itself), or build it
          with <code>VITE_API_BASE_URL</code> set to the server&apos;s address, e.g.{' '}
          <code>VITE_API_BASE_URL=https://api.example.com npm run build</code>.
        </li>
        <li>
          Allow this site&apos;s origin on the server with <code>CORS_ORIGINS</code> when the two live on
          different addresses.
        </li>
        <li>Deploy the rebuilt client and reload this page.</li>
      </ol>
    </section>
  );
}
