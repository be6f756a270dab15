import { child, childText } from '../xml/xml-node.js';
import { readManagedObjectReference, type ManagedObjectReference } from './managed-object-reference.js';
import { VsphereError } from '../vsphere-error.js';

/** The part of ServiceContent the client uses. */
export interface ServiceContent {
  rootFolder: ManagedObjectReference;
  propertyCollector: ManagedObjectReference;
  searchIndex: ManagedObjectReference;
  sessionManager: ManagedObjectReference;
  /** Absent on servers without views (the client then cannot create container views). */
  viewManager: ManagedObjectReference | undefined;
  about: AboutInfo;
}

export interface AboutInfo {
  fullName: string;
  apiVersion: string;
  apiType: string;
  instanceUuid: string;
}

/** A logged-in session (`UserSession`); `key` identifies it (not a secret by itself). */
export interface UserSession {
  key: string;
  userName: string;
}

export function readServiceContent(returnval: unknown): ServiceContent {
  const reference = (name: string): ManagedObjectReference => {
    const found = readManagedObjectReference(child(returnval, name));
    if (found === undefined) {
      throw new VsphereError(`RetrieveServiceContent: the answer has no ${name}`, { kind: 'InvalidResponse', operation: 'RetrieveServiceContent' });
    }
    return found;
  };
  const about = child(returnval, 'about');
  return {
    rootFolder: reference('rootFolder'),
    propertyCollector: reference('propertyCollector'),
    searchIndex: reference('searchIndex'),
    sessionManager: reference('sessionManager'),
    viewManager: readManagedObjectReference(child(returnval, 'viewManager')),
    about: {
      fullName: childText(about, 'fullName') ?? '',
      apiVersion: childText(about, 'apiVersion') ?? '',
      apiType: childText(about, 'apiType') ?? '',
      instanceUuid: childText(about, 'instanceUuid') ?? '',
    },
  };
}

export function readUserSession(node: unknown): UserSession | undefined {
  const key = childText(node, 'key');
  if (key === undefined || key === '') return undefined;
  return { key, userName: childText(node, 'userName') ?? '' };
}
