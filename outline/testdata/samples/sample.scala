package demo
import scala.util.Try
object Main { def main(args: Array[String]): Unit = () }
class Box[T](val v: T) { def get: T = v; private def hidden = 1; val size = 1 }
trait Shape { def area: Double }
case class Point(x: Int, y: Int)
def top(): Int = 1
val answer = 42
enum Color { case Red, Green }
