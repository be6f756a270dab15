/** Finds planted secrets in what a process wrote: as written, base64 (standard and URL-safe) and URL-encoded. */

export function secretForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [...new Set([secret, bytes.toString('base64'), bytes.toString('base64url'), encodeURIComponent(secret)])];
}

/** One description per leak (the secret's name and the text around it); empty when none. */
export function findSecretLeaks(output: string, secrets: Readonly<Record<string, string>>): string[] {
  const leaks: string[] = [];
  for (const [name, secret] of Object.entries(secrets)) {
    for (const form of secretForms(secret)) {
      const index = output.indexOf(form);
      if (index >= 0) leaks.push(`${name} (${form === secret ? 'as written' : 'encoded'}): ...${output.slice(Math.max(0, index - 120), index + form.length + 40)}...`);
    }
  }
  return leaks;
}
