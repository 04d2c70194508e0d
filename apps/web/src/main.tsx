import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { forgetEverything } from './api/session.ts';
import { onSignedOut, queryClient } from './api/trpc.ts';
import { ReauthenticateDialog } from './components/reauthenticate-dialog.tsx';
import { router } from './router.tsx';
import './styles.css';

// A session that ends while the app is open (expired, signed out elsewhere) leads back to sign-in.
onSignedOut(() => {
  if (router.state.location.pathname.startsWith('/w/')) {
    forgetEverything();
    void router.navigate({ to: '/sign-in' });
  }
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      {/* Sudo mode's question, for whichever page made the call that needs it. */}
      <ReauthenticateDialog />
    </QueryClientProvider>
  </StrictMode>,
);
