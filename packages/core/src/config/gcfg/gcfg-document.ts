import type { CloudConfigProblem } from '../cloud-config-error.js';

/** One `name = value` line (or a bare `name`). */
export interface GcfgVariable {
  /** As written in the file; compare case-insensitively. */
  readonly name: string;
  /** The unquoted, unescaped value; `undefined` for a bare name without `=` (gcfg's "blank" value). */
  readonly value: string | undefined;
  readonly line: number;
}

/**
 * A `[section]` or `[section "subsection"]`. Headers repeated in a file are merged into one
 * section, keeping the variables in file order (as gcfg does).
 */
export interface GcfgSection {
  /** As first written; compare case-insensitively. */
  readonly name: string;
  /** Case-sensitive; `undefined` for a plain `[section]` header. */
  readonly subsection: string | undefined;
  /** Line of the first header. */
  readonly line: number;
  readonly variables: readonly GcfgVariable[];
}

/** A parsed gcfg (git-config style) file: every section, plus every syntax problem found. */
export class GcfgDocument {
  readonly fileName: string;
  readonly sections: readonly GcfgSection[];
  /** Syntax problems, in file order. A document with problems still holds what could be parsed. */
  readonly problems: readonly CloudConfigProblem[];

  constructor(fileName: string, sections: readonly GcfgSection[], problems: readonly CloudConfigProblem[]) {
    this.fileName = fileName;
    this.sections = sections;
    this.problems = problems;
  }

  /** The section `[name]` (no subsection) or `[name "subsection"]`; name case-insensitive. */
  section(name: string, subsection?: string): GcfgSection | undefined {
    const wanted = name.toLowerCase();
    return this.sections.find((section) => section.name.toLowerCase() === wanted && section.subsection === subsection);
  }

  /** Every section with this name (with and without subsections), in file order. */
  sectionsNamed(name: string): GcfgSection[] {
    const wanted = name.toLowerCase();
    return this.sections.filter((section) => section.name.toLowerCase() === wanted);
  }

  /**
   * The last assignment of a variable (gcfg: the last one wins for single-valued variables).
   * Its `value` is `undefined` for a bare name, which means `true` for a boolean.
   */
  variable(section: string, variable: string, subsection?: string): GcfgVariable | undefined {
    const found = this.section(section, subsection);
    if (!found) return undefined;
    const wanted = variable.toLowerCase();
    let last: GcfgVariable | undefined;
    for (const entry of found.variables) if (entry.name.toLowerCase() === wanted) last = entry;
    return last;
  }

  /**
   * Every value of a multi-valued variable, in order. A bare name (no `=`) resets the list,
   * as in gcfg.
   */
  values(section: string, variable: string, subsection?: string): string[] {
    const found = this.section(section, subsection);
    if (!found) return [];
    const wanted = variable.toLowerCase();
    let values: string[] = [];
    for (const entry of found.variables) {
      if (entry.name.toLowerCase() !== wanted) continue;
      if (entry.value === undefined) values = [];
      else values.push(entry.value);
    }
    return values;
  }
}
