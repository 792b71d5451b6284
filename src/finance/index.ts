/** The finance module: decimal money, dates, Price table, IOF, CET, late charges, CPF/CNPJ. Pure functions only. */

export * from './business-days.js';
export * from './calendar.js';
export * from './cet.js';
export * from './cnpj.js';
export * from './cpf.js';
export * from './due-dates.js';
export * from './iof.js';
export * from './late-charges.js';
export * from './local-day.js';
export * from './money.js';
export * from './price-table.js';
export * from './rate.js';
export * from './simulate.js';
