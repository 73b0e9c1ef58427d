// The "Streams" section: its pages and their addresses under /dashboard/streams.
import { Route, Routes } from 'react-router';
import { CreateStreamPage } from '../pages/streams/CreateStream.tsx';
import { StreamListPage } from '../pages/streams/StreamList.tsx';
import { StreamPage } from '../pages/streams/StreamPage.tsx';

export function StreamsSection() {
  return (
    <Routes>
      <Route index element={<StreamListPage />} />
      <Route path="new" element={<CreateStreamPage />} />
      <Route path=":streamId" element={<StreamPage />} />
    </Routes>
  );
}
