/**
 * Writes the published `router.d.ts`: lfk's router as a type that stands on its own. The API's
 * own `AppRouter` carries its context (MikroORM's EntityManager, the database, node:crypto keys)
 * and its meta (zod schemas); a consumer has none of those. So the type checker reads the real
 * router and this prints each procedure's input and output as plain structural types, under a
 * router whose context and meta are `object`. Only `@trpc/server` is imported by what it writes.
 */
import ts from 'typescript';

const HEADER =
  "// Generated from lfk's API router by scripts/router-declarations.ts at build time: do not edit.\n" +
  'import type { inferRouterInputs, inferRouterOutputs, TRPCBuiltRouter, TRPCMutationProcedure, TRPCQueryProcedure, ' +
  "TRPCSubscriptionProcedure } from '@trpc/server';\n";

const PROCEDURE_TYPES = { query: 'TRPCQueryProcedure', mutation: 'TRPCMutationProcedure', subscription: 'TRPCSubscriptionProcedure' } as const;

/** A failure names where in the router the unprintable type is, so the fix is one look away. */
class UnprintableType extends Error {}

/** The declarations of `routerModule` (a module of `program` exporting `AppRouter` and `ErrorCode`). */
export function routerDeclarations(program: ts.Program, routerModule: string): string {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(routerModule);
  if (!source) throw new Error(`cannot read ${routerModule}`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`${routerModule} is not a module`);
  const exported = (name: string): ts.Type => {
    const symbol = checker.getExportsOfModule(moduleSymbol).find((s) => s.name === name);
    if (!symbol) throw new Error(`${routerModule} exports no ${name}`);
    return checker.getDeclaredTypeOfSymbol(checker.getAliasedSymbol(symbol));
  };
  const property = (type: ts.Type, name: string, where: string): ts.Type => {
    const symbol = checker.getPropertyOfType(type, name);
    if (!symbol) throw new UnprintableType(`${where}: no property ${name}`);
    return checker.getTypeOfSymbol(symbol);
  };

  const errorCode = exported('ErrorCode');
  const router = exported('AppRouter');
  const definition = property(router, '_def', 'AppRouter');
  const errorShape = property(property(property(definition, '_config', 'AppRouter'), '$types', 'AppRouter'), 'errorShape', 'AppRouter');
  // Printed by name where they occur, so the consumer reads `code: ErrorCode`, not 49 literals.
  const named = new Map<ts.Type, string>([[errorCode, 'ErrorCode']]);

  const printer = new TypePrinter(checker, named);
  const procedures = printRecord(property(definition, 'record', 'AppRouter'), 'AppRouter', '  ');

  function printRecord(record: ts.Type, where: string, indent: string): string {
    const lines = checker.getPropertiesOfType(record).map((entry) => {
      const path = `${where}.${entry.name}`;
      const value = checker.getTypeOfSymbol(entry);
      const procedureDef = checker.getPropertyOfType(value, '_def');
      const kind = procedureDef && checker.getPropertyOfType(checker.getTypeOfSymbol(procedureDef), 'procedure')
        ? checker.getTypeOfSymbol(procedureDef)
        : undefined;
      if (!kind) return `${indent}${entry.name}: ${printRecord(value, path, `${indent}  `)};`;
      const type = property(kind, 'type', path);
      const name = type.isStringLiteral() ? PROCEDURE_TYPES[type.value as keyof typeof PROCEDURE_TYPES] : undefined;
      if (!name) throw new UnprintableType(`${path}: unknown procedure type ${checker.typeToString(type)}`);
      const types = property(kind, '$types', path);
      const input = printer.print(property(types, 'input', path), `${path} input`, `${indent}  `);
      const output = printer.print(property(types, 'output', path), `${path} output`, `${indent}  `);
      return `${indent}${entry.name}: ${name}<{\n${indent}  input: ${input};\n${indent}  output: ${output};\n${indent}  meta: object;\n${indent}}>;`;
    });
    return `{\n${lines.join('\n')}\n${indent.slice(2)}}`;
  }

  return [
    HEADER,
    `/** Every error code lfk answers with (\`error.data.code\` of a thrown \`TRPCClientError\`). */`,
    `export type ErrorCode = ${printer.print(errorCode, 'ErrorCode', '', false)};`,
    '',
    `type ErrorShape = ${printer.print(errorShape, 'errorShape', '')};`,
    '',
    '/** The router as the client sees it: every procedure with its input and output. */',
    `export type AppRouter = TRPCBuiltRouter<{ ctx: object; meta: object; errorShape: ErrorShape; transformer: false }, ${procedures}>;`,
    '',
    'export type RouterInputs = inferRouterInputs<AppRouter>;',
    'export type RouterOutputs = inferRouterOutputs<AppRouter>;',
    '',
  ].join('\n');
}

/**
 * Prints JSON-shaped types structurally, and a stream of them (`AsyncIterable<T>`); anything else
 * (a function, a class, a cycle) stops the build.
 */
class TypePrinter {
  private readonly checker: ts.TypeChecker;
  private readonly named: Map<ts.Type, string>;

  constructor(checker: ts.TypeChecker, named: Map<ts.Type, string>) {
    this.checker = checker;
    this.named = named;
  }

  print(type: ts.Type, where: string, indent: string, useNames = true, seen: ts.Type[] = []): string {
    const name = useNames ? this.named.get(type) : undefined;
    if (name) return name;
    const f = type.flags;
    if (f & ts.TypeFlags.String) return 'string';
    if (f & ts.TypeFlags.Number) return 'number';
    if (f & ts.TypeFlags.Boolean) return 'boolean';
    if (f & ts.TypeFlags.Null) return 'null';
    if (f & ts.TypeFlags.Undefined) return 'undefined';
    if (f & ts.TypeFlags.Void) return 'void';
    if (f & ts.TypeFlags.Unknown) return 'unknown';
    if (f & ts.TypeFlags.Never) return 'never';
    if (type.isStringLiteral()) return JSON.stringify(type.value);
    if (type.isNumberLiteral()) return String(type.value);
    if (f & ts.TypeFlags.BooleanLiteral) return this.checker.typeToString(type);
    if (f & ts.TypeFlags.Any) throw new UnprintableType(`${where}: any`);
    if (seen.includes(type)) throw new UnprintableType(`${where}: a recursive type`);
    const inner = [...seen, type];
    if (type.isUnion()) return this.union(type.types.map((t) => this.print(t, where, indent, useNames, inner)));
    if (type.isIntersection()) return type.types.map((t) => this.print(t, where, indent, useNames, inner)).join(' & ');
    if (this.checker.isArrayType(type)) {
      const [element] = this.checker.getTypeArguments(type as ts.TypeReference);
      return `Array<${this.print(element!, `${where}[]`, indent, useNames, inner)}>`;
    }
    if (this.checker.isTupleType(type)) {
      const target = (type as ts.TypeReference).target as ts.TupleType;
      if (target.hasRestElement || target.minLength !== target.fixedLength) throw new UnprintableType(`${where}: a tuple with optional or rest elements`);
      const elements = this.checker.getTypeArguments(type as ts.TypeReference).map((t, i) => this.print(t, `${where}[${i}]`, indent, useNames, inner));
      return `[${elements.join(', ')}]`;
    }
    if (f & ts.TypeFlags.Object) return this.object(type, where, indent, useNames, inner);
    throw new UnprintableType(`${where}: ${this.checker.typeToString(type)}`);
  }

  /** `true | false` reads as `boolean`, as the source said it. */
  private union(members: string[]): string {
    const set = new Set(members);
    if (set.has('true') && set.has('false')) {
      set.delete('true');
      set.delete('false');
      set.add('boolean');
    }
    return [...set].join(' | ');
  }

  private object(type: ts.Type, where: string, indent: string, useNames: boolean, seen: ts.Type[]): string {
    // A stream of values (an export's chunks): what a caller in the same process iterates. Over
    // HTTP the route that serves it sends the values as they come; printed as what it yields.
    const reference = type as ts.TypeReference;
    if (/^Async(Generator|Iterable|IterableIterator)</.test(this.checker.typeToString(type)) && reference.target) {
      const [yielded] = this.checker.getTypeArguments(reference);
      return `AsyncIterable<${this.print(yielded!, `${where}[yield]`, indent, useNames, seen)}>`;
    }
    // A file's bytes (Node's `Readable`): they leave by the file routes alone, never as JSON, so a
    // caller of the typed router can have none (`downloadFile` and `openFileLink` stream them).
    if (type.getSymbol()?.name === 'Readable') return 'never';
    if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) {
      throw new UnprintableType(`${where}: a function or class (${this.checker.typeToString(type)}), which JSON cannot carry`);
    }
    const nested = `${indent}  `;
    const members = this.checker.getIndexInfosOfType(type).map(
      (info) =>
        `${nested}[key: ${this.print(info.keyType, where, nested, useNames, seen)}]: ` +
        `${this.print(info.type, `${where}[key]`, nested, useNames, seen)};`,
    );
    for (const symbol of this.checker.getPropertiesOfType(type)) {
      const optional = symbol.flags & ts.SymbolFlags.Optional ? '?' : '';
      const key = /^[A-Za-z_$][\w$]*$/.test(symbol.name) ? symbol.name : JSON.stringify(symbol.name);
      const value = this.print(this.checker.getTypeOfSymbol(symbol), `${where}.${symbol.name}`, nested, useNames, seen);
      members.push(`${nested}${key}${optional}: ${value};`);
    }
    return members.length === 0 ? '{}' : `{\n${members.join('\n')}\n${indent}}`;
  }
}
