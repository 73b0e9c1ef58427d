// The dashboard's entry: routes under /dashboard, the GraphQL client, the pages.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './App.tsx';
import { GraphqlProvider } from './client.tsx';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter basename="/dashboard">
      <GraphqlProvider>
        <App />
      </GraphqlProvider>
    </BrowserRouter>
  </StrictMode>,
);
