/** Helpers adapt-to-client's steps share: where nodes sit, keyword roles, own keys that may be `__proto__`. */
import { UNION_KEYWORDS, DEFINITIONS_KEYWORDS } from '../../schema/keywords.js';
import { parsePointer } from '../../json/pointer.js';
import { walkSchema } from '../../schema/walk.js';


/** Where each schema node sits: the nearest enclosing definition entry, if any. */
export interface NodeInfo {
  /** Pointer of the nearest node (itself included) that is an entry of a definitions container. */
  readonly defEntry: string | undefined;
}

export function indexNodes(schema: unknown): Map<string, NodeInfo> {
  const info = new Map<string, NodeInfo>();
  const stack: { path: string; defEntry: string | undefined }[] = [];
  walkSchema(schema, '', {
    table: UNION_KEYWORDS,
    onSchema(_node, path, keyword) {
      while (stack.length > 0 && !path.startsWith(stack[stack.length - 1]!.path + '/')) stack.pop();
      const inherited = stack.length > 0 ? stack[stack.length - 1]!.defEntry : undefined;
      const defEntry = keyword !== undefined && DEFINITIONS_KEYWORDS.includes(keyword) ? path : inherited;
      info.set(path, { defEntry });
      stack.push({ path, defEntry });
    },
  });
  return info;
}

export function within(path: string, ancestor: string): boolean {
  return ancestor === '' || path === ancestor || path.startsWith(ancestor + '/');
}


export function isAnnotation(keyword: string): boolean {
  return UNION_KEYWORDS.get(keyword)?.role === 'annotation';
}


export function setOwnKey(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

export function nameOf(path: string): string {
  if (path === '') return '#';
  const tokens = parsePointer(path);
  return tokens[tokens.length - 1]!;
}

