import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { onSessionEnded } from '../api/client.ts';
import { CURRENT_USER_KEY } from '../api/user.ts';
import { OfflineScreen, useOnline } from './offline.tsx';
import { routes } from './routes.tsx';
import { colorSchemeManager, theme } from './theme.ts';
import { contrastTokens } from './tokens.ts';

const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } });
const router = createBrowserRouter(routes);

// A call refused for an ended session forgets the user and goes to /login (docs/accounts.md#errors).
onSessionEnded(() => {
  // Nobody is signed in any more (a late answer to a call of a session already ended): nothing to end.
  if (!queryClient.getQueryData(CURRENT_USER_KEY)) return;
  queryClient.setQueryData(CURRENT_USER_KEY, null);
  void router.navigate('/login');
});

/** Providers (theme, data, toasts) around the router; the offline screen replaces everything when offline. */
export function App() {
  const online = useOnline();
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme="dark"
      colorSchemeManager={colorSchemeManager}
      cssVariablesResolver={contrastTokens}
    >
      {/* No enter or leave transition: a toast is on screen for its 2 seconds and no longer, alone. */}
      <Notifications position="top-right" limit={1} transitionDuration={0} />
      <QueryClientProvider client={queryClient}>
        {online ? <RouterProvider router={router} /> : <OfflineScreen />}
      </QueryClientProvider>
    </MantineProvider>
  );
}
