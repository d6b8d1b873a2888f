// The linear nesting scans that decide, before any parser runs, whether a GraphQL request is
// too deep (gateway/graphql-bounds.ts, issue 45 item 1): brackets inside strings, block strings
// and comments do not count.
import { describe, expect, it } from 'vitest';
import { jsonNestsDeeper, queryNestsDeeper } from '../../gateway/graphql-bounds.ts';

describe('queryNestsDeeper', () => {
  it('counts selection sets, arguments, lists and objects together', () => {
    expect(queryNestsDeeper('{ a { b } }', 2)).toBe(false);
    expect(queryNestsDeeper('{ a { b { c } } }', 2)).toBe(true);
    expect(queryNestsDeeper('{ a(x: [{ y: 1 }]) }', 3)).toBe(true);
    expect(queryNestsDeeper(`{${'a{'.repeat(12_000)}b${'}'.repeat(12_001)}`, 64)).toBe(true);
  });

  it('skips strings, block strings (with escaped quotes) and comments', () => {
    expect(queryNestsDeeper('{ a(x: "{{{{[[[[") }', 2)).toBe(false);
    expect(queryNestsDeeper('{ a(x: "\\"{{{{") }', 2)).toBe(false);
    expect(queryNestsDeeper('{ a(x: """ {{{{ \\""" {{{{ """) }', 2)).toBe(false);
    expect(queryNestsDeeper('{ a # {{{{{{\n }', 1)).toBe(false);
    expect(queryNestsDeeper('{ a # {{{{{{\n { b { c } } }', 2)).toBe(true);
  });
});

describe('jsonNestsDeeper', () => {
  it('counts arrays and objects, not what strings hold', () => {
    expect(jsonNestsDeeper('{"v":[[1]]}', 3)).toBe(false);
    expect(jsonNestsDeeper('{"v":[[[1]]]}', 3)).toBe(true);
    expect(jsonNestsDeeper('{"v":"[[[[[[\\"[[[["}', 1)).toBe(false);
    expect(jsonNestsDeeper(`${'['.repeat(40_000)}${']'.repeat(40_000)}`, 64)).toBe(true);
  });
});
