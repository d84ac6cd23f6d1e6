import 'package:flutter/material.dart';
class Widget extends Base { int count = 0; void build() {} void _hidden() {} Widget(); }
abstract class Shape { double area(); }
mixin Fly {}
enum Color { red, green }
void main() {}
int _private() => 1;
final answer = 42;
typedef Cb = void Function();
extension on String {}
