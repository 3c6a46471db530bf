/// <reference lib="dom" />
/**
 * The web page's entry: draws the page into the shell's root. Nothing inline, nothing from
 * elsewhere: the server's CSP allows this script and its style alone.
 */
import { createRoot } from 'react-dom/client';
import { App } from './components/App.js';

const root = document.getElementById('root');
if (root) createRoot(root).render(<App />);
