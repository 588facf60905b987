import { describe, expect, it } from 'vitest';
import { ByteBudget } from './byte-budget.ts';

describe('ByteBudget', () => {
  it('holds what fits, refuses what does not, and frees what is given back', () => {
    const budget = new ByteBudget(100);
    expect(budget.take(60)).toBe(true);
    expect(budget.take(50)).toBe(false);
    expect(budget.held).toBe(60);
    expect(budget.take(40)).toBe(true);
    expect(budget.take(1)).toBe(false);
    budget.give(60);
    expect(budget.take(50)).toBe(true);
    expect(budget.held).toBe(90);
    budget.give(1000);
    expect(budget.held).toBe(0);
  });
});
