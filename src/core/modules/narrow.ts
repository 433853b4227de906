/**
 * The members `keys` of `service`, as a facade that shows only those: methods
 * bound once, getters read live. A face holding it cannot reach the rest of
 * the service (its store, its connections), at run time as in its type.
 */
export function narrow<T extends object, const K extends keyof T>(service: T, keys: readonly K[]): Pick<T, K> {
  const facade = {} as Pick<T, K>;
  for (const key of keys) {
    if (isAccessor(service, key)) {
      Object.defineProperty(facade, key, { enumerable: true, get: () => service[key] });
      continue;
    }
    const value = service[key];
    Object.defineProperty(facade, key, { enumerable: true, value: typeof value === 'function' ? value.bind(service) : value });
  }
  return Object.freeze(facade);
}

/** Whether `key` is a getter somewhere on the object or its prototype chain (read live, never copied). */
function isAccessor(object: object, key: PropertyKey): boolean {
  for (let current: object | null = object; current; current = Object.getPrototypeOf(current) as object | null) {
    const descriptor = Object.getOwnPropertyDescriptor(current, key);
    if (descriptor) return descriptor.get !== undefined;
  }
  return false;
}
