// A small TypeScript module: café ☕ and 😀 exercise UTF-16 positions.
export function greet(name: string): string {
  // TODO: localise "café"
  return `Hello, ${name}! 😀 café`;
}

export const shout = (s: string): string => s.toUpperCase();
