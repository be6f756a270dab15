/**
 * An error ARM answers with: an HTTP status and the `{"error":{"code","message"}}` body with the
 * code the real service uses.
 */
export class ArmError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ArmError';
  }

  toBody(): { error: { code: string; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
}

/** `ResourceNotFound` for a top-level resource, as ARM words it. */
export function resourceNotFound(type: string, name: string, resourceGroup: string): ArmError {
  return new ArmError(
    404,
    'ResourceNotFound',
    `The Resource '${type}/${name}' under resource group '${resourceGroup}' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix`,
  );
}

/** `NotFound` for a nested resource (subnet, pool, scale-set instance, scale-set NIC). */
export function nestedNotFound(id: string): ArmError {
  return new ArmError(404, 'NotFound', `Resource ${id} not found.`);
}

export function resourceGroupNotFound(resourceGroup: string): ArmError {
  return new ArmError(404, 'ResourceGroupNotFound', `Resource group '${resourceGroup}' could not be found.`);
}

/** A reference in a request body to a resource that does not exist (Microsoft.Network wording). */
export function invalidResourceReference(referencedId: string, referencingId: string): ArmError {
  return new ArmError(
    400,
    'InvalidResourceReference',
    `Resource ${referencedId} referenced by resource ${referencingId} was not found. Please make sure that the referenced resource exists, and that both resources are in the same region.`,
  );
}

export function invalidRequestFormat(message: string): ArmError {
  return new ArmError(400, 'InvalidRequestFormat', `Cannot parse the request. ${message}`);
}
