import './i18n/index.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';

// A service worker cached by an earlier version must not serve stale pages (docs/accounts.md#screens).
void navigator.serviceWorker?.getRegistrations().then((list) => {
  for (const registration of list) void registration.unregister();
});

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
