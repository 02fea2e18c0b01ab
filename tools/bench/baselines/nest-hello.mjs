// Baseline of figures 2, 4 and 6: a bare NestJS/Express application, no guards, interceptors,
// logging or database. GET /hello answers a small JSON; POST /echo parses a JSON body and answers
// 202 with a small JSON (the shape of an ingestion answer). Decorators are applied as functions.
import 'reflect-metadata';
import { Controller, Get, HttpCode, Module, Post, Body } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

class HelloController {
  hello() {
    return { success: true, data: { hello: 'world' } };
  }
  echo(body) {
    return { success: true, data: { accepted: body && typeof body === 'object' ? 1 : 0, duplicates: 0, rejected: [] } };
  }
}
const method = (name) => Object.getOwnPropertyDescriptor(HelloController.prototype, name);
Get('hello')(HelloController.prototype, 'hello', method('hello'));
Post('echo')(HelloController.prototype, 'echo', method('echo'));
HttpCode(202)(HelloController.prototype, 'echo', method('echo'));
Body()(HelloController.prototype, 'echo', 0);
Controller()(HelloController);

class AppModule {}
Module({ controllers: [HelloController] })(AppModule);

const app = await NestFactory.create(AppModule, { logger: ['error'] });
await app.listen(Number(process.env.PORT), '127.0.0.1');
