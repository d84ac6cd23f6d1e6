import 'dart:async';
abstract class Shape {
  double get area;
}
class Circle extends Shape with Printable implements Comparable<Circle> {
  final double radius;
  static const pi = 3.14;
  Circle(this.radius);
  Circle.unit() : radius = 1;
  @override
  double get area => pi * radius * radius;
  int compareTo(Circle other) => area.compareTo(other.area);
  void describe() {
    print('Circle of $radius');
  }
}
enum Color { red, green }
Future<int> main(List<String> args) async {
  var xs = [1, 2, 3].map((x) => x * 2).toList();
  for (final x in xs) {
    if (x > 2) print(x); else continue;
  }
  final c = Circle(2.0)..describe();
  await Future.delayed(Duration(seconds: 1));
  return xs.length;
}
