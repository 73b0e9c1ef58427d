// The "Webhooks" section: its pages and their addresses under /dashboard/webhooks.
import { Route, Routes } from 'react-router';
import { AddEndpointPage } from '../pages/webhooks/AddEndpoint.tsx';
import { EditEndpointPage } from '../pages/webhooks/EditEndpoint.tsx';
import { EndpointPage } from '../pages/webhooks/EndpointPage.tsx';
import { WebhookListPage } from '../pages/webhooks/WebhookList.tsx';

export function WebhooksSection() {
  return (
    <Routes>
      <Route index element={<WebhookListPage />} />
      <Route path="new" element={<AddEndpointPage />} />
      <Route path=":endpointId" element={<EndpointPage />} />
      <Route path=":endpointId/edit" element={<EditEndpointPage />} />
    </Routes>
  );
}
