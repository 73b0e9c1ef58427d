// Who is signed in, as the pages need it: their role in the current organization, and whether
// they operate the service.
import { createContext, useContext } from 'react';
import type { Role } from './gql/graphql.ts';

export interface Viewer {
  role: Role | null;
  /** whether the person operates the service: the "Operator" section is theirs */
  operator: boolean;
}

export const ViewerContext = createContext<Viewer>({ role: null, operator: false });

/** The signed-in person's role in the current organization. */
export const useViewer = () => useContext(ViewerContext);
