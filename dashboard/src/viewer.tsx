// Who is signed in, as the pages need it: their role in the current organization.
import { createContext, useContext } from 'react';
import type { Role } from './gql/graphql.ts';

export interface Viewer {
  role: Role | null;
}

export const ViewerContext = createContext<Viewer>({ role: null });

/** The signed-in person's role in the current organization. */
export const useViewer = () => useContext(ViewerContext);
