let counter = 0;

/** A fresh id in the shape of a MongoDB ObjectId (24 hex digits), as the real repositories hand out. */
export const newObjectId = (): string => (Date.now().toString(16).slice(-10) + (++counter).toString(16).padStart(14, '0')).slice(0, 24);

export const isObjectId = (id: string): boolean => /^[0-9a-f]{24}$/i.test(id);
