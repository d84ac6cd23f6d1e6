require 'json'
module Demo
  class Greeter < Base
    attr_reader :name
    def initialize(name = "world", *rest, **opts, &blk)
      @name = name
    end
    def greet
      puts "Hello, #{@name}!" if @name
      [1, 2, 3].each { |x| yield x }
      %w[a b].map do |s|
        s.upcase
      end
    end
    def self.build = new
  end
end
case x
when 1..5 then :small
else nil
end
h = { a: 1, 'b' => 2 }
h[:a] ||= 3 unless h.empty?
