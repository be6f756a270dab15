/**
 * Nova's links: `self` on the versioned endpoint (`http://host:port/v2.1/servers/ID`) and
 * `bookmark` on the unversioned one (`http://host:port/servers/ID`), and the `next` link of a
 * full page (`.../servers/detail?limit=N&marker=LAST`, the request's other parameters kept).
 */
export interface Link {
  href: string;
  rel: string;
}

export class Links {
  /** `http://127.0.0.1:PORT/v2.1` */
  readonly versioned: string;
  /** `http://127.0.0.1:PORT` */
  readonly bookmarkBase: string;

  constructor(versionedEndpoint: string) {
    this.versioned = versionedEndpoint.replace(/\/+$/, '');
    this.bookmarkBase = this.versioned.replace(/\/v2(\.1)?$/, '');
  }

  resource(collection: string, id: string): Link[] {
    return [
      { href: `${this.versioned}/${collection}/${id}`, rel: 'self' },
      { href: `${this.bookmarkBase}/${collection}/${id}`, rel: 'bookmark' },
    ];
  }

  bookmark(collection: string, id: string): Link[] {
    return [{ href: `${this.bookmarkBase}/${collection}/${id}`, rel: 'bookmark' }];
  }

  /** `path` is `servers/detail`; `parameters` the request's query (limit and marker replaced). */
  next(path: string, parameters: URLSearchParams, limit: number, marker: string): Link {
    const query = new URLSearchParams();
    for (const [key, value] of parameters) if (key !== 'limit' && key !== 'marker') query.append(key, value);
    query.set('limit', String(limit));
    query.set('marker', marker);
    return { href: `${this.versioned}/${path}?${query.toString()}`, rel: 'next' };
  }
}
